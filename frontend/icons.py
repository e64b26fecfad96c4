"""Draws the page's PNG icons from our own static/icon.svg with Debian's chromium.

Run ``python frontend/icons.py`` from the repository after changing the drawing;
tests/widgets/test_page.py checks that the PNGs are the sizes the manifest says.
"""

from __future__ import annotations

from pathlib import Path

STATIC = (
    Path(__file__).resolve().parents[1]
    / "companion/widgets/jupyter/voila/templates/companion/static"
)


def main() -> None:
    """Write icon-192.png and icon-512.png."""
    from playwright.sync_api import sync_playwright

    svg = (STATIC / "icon.svg").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for size in (192, 512):
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(
                    "<style>html,body{margin:0;background:transparent}svg{display:block}</style>"
                    + svg.replace('width="512" height="512"', f'width="{size}" height="{size}"', 1)
                )
                page.screenshot(path=str(STATIC / f"icon-{size}.png"), omit_background=True)
                page.close()
        finally:
            browser.close()


if __name__ == "__main__":
    main()
