/* The companion's page, built by frontend/build.mjs from 7423ac30f7ccba5280bccaea7c53c9c0d48ac8f4fa701dec2daae1528f45a01a */
(()=>{try{t=localStorage.getItem("companion-scheme"),(t==="dark"||t==="light")&&(document.documentElement.dataset.scheme=t)}catch{}var t;})();
