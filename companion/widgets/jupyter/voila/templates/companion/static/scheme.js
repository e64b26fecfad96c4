/* The companion's page, built by frontend/build.mjs from 675e0a55b300cb6bbd829fd968a2ff838f389d8c7fe9711a2a55524705855485 */
(()=>{try{t=localStorage.getItem("companion-scheme"),(t==="dark"||t==="light")&&(document.documentElement.dataset.scheme=t)}catch{}var t;})();
