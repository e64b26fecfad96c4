/* The companion's page, built by frontend/build.mjs from cf1a9de8c2e5805ac065df4f60b0c5df804a24c41740f3dc5b65911e61cae29b */
(()=>{try{t=localStorage.getItem("companion-scheme"),(t==="dark"||t==="light")&&(document.documentElement.dataset.scheme=t)}catch{}var t;})();
