"""The front door of ``companion serve``: the games by title, games in progress, history."""

from __future__ import annotations

import re
from pathlib import Path

from companion.widgets.drafts import Drafts
from companion.widgets.front_door import front_door
from scorers import GAME_IDS, title


def links(page: str) -> dict[str, str]:
    return {
        text: href for href, text in re.findall(r'<a href=["\']([^"\']+)["\']>([^<]+)</a>', page)
    }


def test_the_five_games_by_title_and_the_history_with_nothing_from_outside(tmp_path: Path) -> None:
    page = front_door(db=tmp_path / "none.sqlite3")
    found = links(page)
    for game in GAME_IDS:
        assert found[title(game)] == f"/voila/render/{game}.ipynb"
    assert found["Games played, stats and records"] == "/voila/render/history.ipynb"
    assert "No game in progress." in page
    assert "http" not in page and "//" not in page.replace("<!DOCTYPE html>", "")
    assert "<script" not in page


def test_games_in_progress_are_there_to_join(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    Drafts("shogun", db).keep(None, {"players": 3, "names": ["Aki", "<b>Ben</b>", "", "Zed"]})
    page = front_door(db=db, live={"shogun": 2, "tokaido": 1})
    assert links(page)["Join Shogun"] == "/voila/render/shogun.ipynb"
    assert "(Aki, &lt;b&gt;Ben&lt;/b&gt;; 2 devices connected)" in page  # names are data
    assert "Join Tokaido</a> (names not typed yet; 1 device connected)" in page


def test_table_mode_shows_the_join_address_and_its_qr_code(tmp_path: Path) -> None:
    join = "http://192.168.1.20:8866/"
    page = front_door(db=tmp_path / "none.sqlite3", join=join, secret="abc", host_device=True)
    assert f"<code>{join}?table=abc</code>" in page
    assert "<svg" in page and "Anyone who has this address can enter scores." in page
    assert "action='/companion/new-secret'" in page
    guest = front_door(db=tmp_path / "none.sqlite3", join=join, secret="abc")
    assert "new-secret" not in guest


def test_the_host_s_screen_not_shown_the_code_reads_why_and_keeps_new_secret(
    tmp_path: Path,
) -> None:
    join = "http://192.168.1.20:8866/"
    page = front_door(
        db=tmp_path / "none.sqlite3", join=join, host_device=True, hidden="Reload <it>."
    )
    assert "<h2>Join this table</h2><p class='hidden-code'>Reload &lt;it&gt;.</p>" in page
    assert "?table=" not in page and "<svg" not in page
    assert "action='/companion/new-secret'" in page
    assert "Join this table" not in front_door(db=tmp_path / "none.sqlite3", join=join)
