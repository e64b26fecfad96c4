/* The companion's page, built by frontend/build.mjs from 826176ffd40b023f98a6989aa77efe0ee1587e1cdf37a532e54108c1d522ee5f */
(()=>{try{t=localStorage.getItem("companion-scheme"),(t==="dark"||t==="light")&&(document.documentElement.dataset.scheme=t)}catch{}var t;})();
