/* The companion's page, built by frontend/build.mjs from e1e232cb4dd125d243cbac7505da1777b02e18e53be36b080e3b48b42318bea8 */
(()=>{try{t=localStorage.getItem("companion-scheme"),(t==="dark"||t==="light")&&(document.documentElement.dataset.scheme=t)}catch{}var t;})();
