"""The pages' style sheet, sent with the page itself (no fonts or files from elsewhere)."""

from __future__ import annotations

import ipywidgets as w

CSS = """
.companion { --jp-widgets-inline-height: 44px; --jp-widgets-font-size: 16px;
  font-size: 16px; max-width: 1400px; box-sizing: border-box; }
.companion * { box-sizing: border-box; }
.companion h1 { margin: 6px 0; font-size: 24px; line-height: 1.25; }
.companion h2 { margin: 10px 0 4px; font-size: 19px; line-height: 1.25; }
.companion h3 { margin: 10px 0 4px; font-size: 17px; }
.companion .nav a, .companion .nav b { margin-right: 14px; display: inline-block;
  line-height: 44px; }
.companion .nav a { color: var(--c-link, #0b57a8); }
.companion .widget-hbox { flex-wrap: wrap; gap: 4px 8px; }
.companion .widget-text input, .companion .widget-dropdown select {
  height: 44px; font-size: 16px; padding: 0 6px; }
.companion .widget-text, .companion .widget-dropdown { margin: 0; height: auto; }
.companion .widget-button { height: 44px; min-width: 44px; width: auto; padding: 0 14px;
  font-size: 16px; margin: 0; }
.companion .widget-checkbox { height: auto; min-height: 44px; width: auto; margin: 0; }
.companion .widget-checkbox input[type=checkbox] { width: 30px; height: 44px;
  margin: 0 10px 0 2px; flex: none; }
.companion .widget-checkbox label { white-space: normal; line-height: 1.35; padding: 10px 0;
  height: auto; }
.companion .widget-html, .companion .widget-html-content { height: auto; line-height: 1.35;
  white-space: normal; overflow-wrap: anywhere; margin: 0; }
.companion .panels { gap: 12px; align-items: flex-start; }
.companion .panel { border: 1px solid var(--c-line, #d0d0d0); border-radius: 8px; padding: 8px 10px;
  flex: 1 1 360px; min-width: 0; max-width: 100%; }
.companion .names .name-slot { flex: 1 1 11em; max-width: 18em; }
.companion .message, .companion .problem, .companion .pending { color: var(--c-problem, #b00020);
  font-size: 14px; }
.companion .pending { display: none; }
.companion .tried .pending, .companion .cell.left .pending { display: block; }
.companion .cell.bad input, .companion .cell.bad select,
.companion .tried .cell.waiting input, .companion .tried .cell.waiting select,
.companion .cell.left.waiting input, .companion .cell.left.waiting select {
  border: 2px solid var(--c-problem, #b00020); }
.companion .ok, .companion .saved { color: var(--c-ok, #11702f); }
.companion .padscroll { overflow-x: auto; max-width: 100%; width: 100%; display: block; }
.companion .padscroll .grid { gap: 4px 8px; align-items: start; min-width: min-content;
  overflow: visible; }
.companion .grid .rowlabel { position: sticky; left: 0; z-index: 2;
  background: var(--c-bg, #fff); padding: 10px 6px 0 0; font-size: 15px;
  color: var(--c-fg, #1f1f1f);
  box-shadow: 6px 0 6px -6px var(--c-line, #d0d0d0); }
.companion .grid .rowlabel, .companion .grid .rowlabel .widget-html-content {
  overflow-wrap: normal; word-break: normal; hyphens: manual; white-space: normal; }
.companion .grid .head { font-size: 18px; padding: 6px 0;
  border-bottom: 2px solid var(--c-strong-line, #333);
  overflow: hidden; text-overflow: ellipsis; }
.companion .grid .total { font-size: 20px; padding-top: 8px;
  border-top: 2px solid var(--c-strong-line, #333); }
.companion .grid .total-label { border-top: 2px solid var(--c-strong-line, #333);
  font-weight: bold; }
.companion .cell { min-width: 0; }
.companion .cell.heard input, .companion .cell.heard select {
  border: 2px dashed var(--c-link, #0b57a8); }
.companion .heard-note { color: var(--c-link, #0b57a8); font-size: 14px; }
.companion .cell:not(.heard) .heard-note { display: none; }
.companion .voice { align-items: center; margin: 6px 0; }
.companion .companion-listen { display: flex; flex-wrap: wrap; gap: 4px 8px;
  align-items: center; }
.companion .listen-line { font-size: 15px; line-height: 1.35; }
.companion .listen-button[aria-pressed=true] { outline: 3px solid var(--c-problem, #b00020); }
.companion .cell .controls { gap: 3px; }
.companion .cell .controls > .widget-inline-hbox { margin: 0; }
.companion .cell .widget-text, .companion .cell .widget-dropdown { flex: 0 0 auto; }
.companion .cell.list .items .item { gap: 4px; margin-bottom: 4px; }
.companion .cell.list.inline .items { flex-direction: row !important; flex-wrap: wrap; gap: 4px; }
.companion .cell.list.inline .items .item { margin: 0; }
.companion .minihead { text-align: center; flex: 0 0 auto; margin: 0; }
.companion .minihead span { font-size: 14px; color: var(--c-muted, #4d4d4d); }
.companion .cell.heading .controls { padding-top: 12px; }
.companion .shared-row { align-items: center; }
.companion .shared-row > .widget-html { min-width: 9em; }
.companion .save-row { align-items: center; margin: 8px 0; }
.companion .save-row .save { min-width: 12em; }
.companion .streets { max-width: 100%; height: auto; }
.companion .street-entry .widget-textarea { width: 100%; margin: 0; }
.companion .street-entry textarea { min-height: 44px; font-size: 16px; padding: 6px;
  line-height: 1.35; resize: vertical; }
.companion .street-said { font-size: 14px; line-height: 1.35; }
.companion .street-said .hint, .companion .street-said .typing { color: var(--c-muted, #4d4d4d); }
.companion .street-said .note { color: var(--c-problem, #b00020); }
/* A table wider than the screen scrolls sideways; a shade at an edge says more lies
   beyond it (the covers scroll with the table, the shades stay with the box). */
.companion .tablescroll { overflow-x: auto; max-width: 100%; width: fit-content;
  background:
    linear-gradient(to right, var(--c-bg, #fff) 30%, transparent) left / 28px 100% no-repeat local,
    linear-gradient(to left, var(--c-bg, #fff) 30%, transparent) right / 28px 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, var(--c-shade, rgba(0, 0, 0, 0.3)), transparent)
      left / 12px 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, var(--c-shade, rgba(0, 0, 0, 0.3)), transparent)
      right / 12px 100% no-repeat scroll; }
.companion table { border-collapse: collapse; margin: 4px 0; }
.companion .nobr { white-space: nowrap; }
.companion .breakdown th[scope=row] { font-weight: normal; }
.companion th, .companion td { padding: 4px 10px; border-bottom: 1px solid #e4e4e4;
  text-align: left; white-space: nowrap; overflow-wrap: normal; }
.companion th, .companion td { border-bottom-color: var(--c-line, #d0d0d0); }
.companion td.n { text-align: right; }
.companion .bars .bar { display: flex; align-items: center; gap: 6px; margin: 3px 0; }
.companion .bar-name { flex: 0 0 7em; overflow: hidden; text-overflow: ellipsis; }
.companion .bar-track { flex: 1 1 auto; max-width: 360px; background: var(--c-track, #e6e6e6);
  height: 14px; }
.companion .bar-fill { display: block; background: var(--c-bar, #2f7d4f); height: 14px; }
.companion .widget-html > .widget-html-content { min-width: 0; max-width: 100%; }
.companion .chart { width: 100%; max-width: 560px; height: auto; display: block; }
.companion .legend { max-width: 560px; line-height: 1.6; }
.companion .legend .key { white-space: nowrap; margin-right: 12px; display: inline-block; }
.companion h4 { margin: 10px 0 2px; font-size: 17px; }
.companion .small, .companion .chart-notes { font-size: 14px; color: var(--c-muted, #4d4d4d); }
.companion .why p, .companion .records-set p, .companion .about p, .companion .details p {
  margin: 2px 0; }
.companion .after-game { background: var(--c-panel, #f3f8f3); border-radius: 8px; padding: 0 10px; }
.companion .after-game:empty { display: none; }
.companion .tracker .bid select { width: 12em; }
.companion .steps .widget-checkbox { width: 100%; }
.companion .tracker .counts .widget-text { width: 9em; }
.companion .play-list .play-row { align-items: center;
  border-bottom: 1px solid var(--c-line, #d0d0d0); }
.companion .play-row .widget-html { flex: 1 1 14em; }

/* Contrast: the Save button and Delete (ipywidgets' own green and red are 2.8:1 and 3.7:1). */
.companion .jupyter-button.mod-success { background: var(--c-save, #1b6e2e); color: #fff; }
.companion .jupyter-button.mod-danger { background: var(--c-danger, #a61b1b); color: #fff; }
.companion .jupyter-button.mod-warning { background: #8a4b00; color: #fff; }
.companion .jupyter-button { color: var(--c-fg, #1f1f1f); }
.companion .jupyter-button.mod-success, .companion .jupyter-button.mod-danger { color: #fff; }
/* A focus ring of 3 px everywhere (ipywidgets draws none, or 1 px). */
.companion input:focus, .companion select:focus, .companion textarea:focus {
  outline: 3px solid var(--c-focus, #1a5fb4) !important; outline-offset: 1px; }
.companion .jupyter-button:focus-visible, .companion a:focus-visible,
.companion [tabindex]:focus-visible, .companion input[type=checkbox]:focus-visible {
  outline: 3px solid var(--c-focus, #1a5fb4) !important; outline-offset: 2px; }
.companion .jupyter-button:focus:enabled { outline-width: 3px; outline-offset: 2px; }
/* Every select as wide as its longest choice, so the chosen text always shows. */
.companion .widget-dropdown { width: auto !important; max-width: 100%; flex: 0 1 auto; }
.companion .widget-dropdown select { width: auto; max-width: 100%; padding-right: 22px; }
.companion .grid { --companion-label: max-content; }
.companion .save-status[tabindex], .companion .result-focus { outline-offset: 4px; }
.companion .last-game:empty, .companion .rules-box:empty { display: none; }
.companion .last-game { font-size: 15px; margin: 2px 0 6px; }
.companion .table-helpers { align-items: center; gap: 6px 10px; }
.companion .clock-time { font-variant-numeric: tabular-nums; font-size: 18px; min-width: 4.5em; }
.companion .rules-panel { border: 1px solid var(--c-line, #d0d0d0); border-radius: 8px;
  padding: 6px 10px; margin: 6px 0; }
.companion .rules-panel .rules-text p, .companion .rules-panel .rules-text li { line-height: 1.45; }
.companion .rules-hits .jupyter-button { text-align: left; white-space: normal; height: auto;
  min-height: 44px; line-height: 1.3; padding: 6px 10px; }
.companion mark { background: #ffe27a; color: #1f1f1f; }
@media (max-width: 700px) {
  .companion .grid { --companion-label: 6.5em; }
  /* Tables fit a phone where they can: a heading or a value wraps between its words. */
  .companion th, .companion td { white-space: normal; padding: 4px 3px; font-size: 14px; }
  .companion h1 { font-size: 21px; }
}
"""


def style(game: str | None = None) -> w.HTML:
    """The style sheet as a widget, with the game's own rules (its kit's ``css``); put it first."""
    extra = ""
    if game is not None:
        from companion.kits import KITS

        extra = KITS[game].css.replace("PAD", f".companion .pad-{game}")
    return w.HTML(f"<style>{CSS}{extra}</style>", layout=w.Layout(height="0px", margin="0"))
