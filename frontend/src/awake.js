// Keeps a phone's screen on while a game's page is open.
//
// The Wake Lock API where the browser offers it (a secure context: the host's
// own machine, or https). Elsewhere (a phone on the table's Wi-Fi at
// http://192.168.…), a muted, looping, inline video of a blank second (the
// media of nosleep.js, MIT, served from the page's static folder): a playing
// video keeps the screen on. A browser that will not play it before the first
// tap plays it on the first tap.

const STATIC = "voila/templates/companion/static/";

export function keepAwake(base) {
  const root = document.documentElement;
  let lock = null;
  let video = null;

  function wanted() {
    return document.visibilityState === "visible" && document.querySelector(".companion .scorepad");
  }

  function viaVideo() {
    if (!video) {
      video = document.createElement("video");
      video.className = "companion-awake";
      video.muted = true;
      video.loop = true;
      video.setAttribute("muted", "");
      video.setAttribute("playsinline", "");
      video.setAttribute("aria-hidden", "true");
      video.setAttribute("tabindex", "-1");
      for (const [type, file] of [["video/webm", "awake.webm"], ["video/mp4", "awake.mp4"]]) {
        const source = document.createElement("source");
        source.type = type;
        source.src = `${base}${STATIC}${file}`;
        video.appendChild(source);
      }
      // It has no sound: its captions are empty (a video without any is an accessibility fault).
      const captions = document.createElement("track");
      captions.kind = "captions";
      captions.srclang = "en";
      captions.label = "No sound";
      captions.src = `${base}${STATIC}awake.vtt`;
      video.appendChild(captions);
      document.body.appendChild(video);
    }
    const played = video.play();
    if (played && played.then) {
      played.then(
        () => {
          root.dataset.awake = "video";
        },
        () => {
          // Not before a tap: the first tap starts it.
          const again = () => {
            document.removeEventListener("pointerdown", again, true);
            document.removeEventListener("keydown", again, true);
            if (wanted()) {
              viaVideo();
            }
          };
          document.addEventListener("pointerdown", again, true);
          document.addEventListener("keydown", again, true);
        },
      );
    }
  }

  function awake() {
    if (!wanted()) {
      return;
    }
    if ("wakeLock" in navigator && window.isSecureContext) {
      if (lock) {
        return;
      }
      navigator.wakeLock.request("screen").then(
        (sentinel) => {
          lock = sentinel;
          root.dataset.awake = "lock";
          sentinel.addEventListener("release", () => {
            lock = null;
            delete root.dataset.awake;
          });
        },
        () => viaVideo(), // refused (battery saver): the video may still do
      );
      return;
    }
    viaVideo();
  }

  document.addEventListener("visibilitychange", awake);
  if (document.querySelector(".companion .scorepad")) {
    awake();
    return;
  }
  new MutationObserver((changes, observer) => {
    if (document.querySelector(".companion .scorepad")) {
      observer.disconnect();
      awake();
    }
  }).observe(document.body, { childList: true, subtree: true });
}
