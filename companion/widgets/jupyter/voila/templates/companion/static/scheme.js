/* The companion's page, built by frontend/build.mjs from e90f9d12d9596031012871ab6d53f254cc50502b899ae3021a37f0862c408003 */
(()=>{try{t=localStorage.getItem("companion-scheme"),(t==="dark"||t==="light")&&(document.documentElement.dataset.scheme=t)}catch{}var t;})();
