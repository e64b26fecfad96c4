/* The companion's page, built by frontend/build.mjs from af26f5adef66327b12798b2933211aff63f3071eb4bc5a0db87b60e8bdaf2c91 */
(()=>{try{t=localStorage.getItem("companion-scheme"),(t==="dark"||t==="light")&&(document.documentElement.dataset.scheme=t)}catch{}var t;})();
