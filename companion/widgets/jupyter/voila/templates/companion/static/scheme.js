/* The companion's page, built by frontend/build.mjs from ee8fabf506428d6daa8f33a4dfc92e9d15d2d2b6514f440bc6a87b7d2316bc14 */
(()=>{try{t=localStorage.getItem("companion-scheme"),(t==="dark"||t==="light")&&(document.documentElement.dataset.scheme=t)}catch{}var t;})();
