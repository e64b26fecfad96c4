// The widget classes the companion's pages use, and only those: the other
// controls would add about 80 KB of script to compile on every first visit.
// tests/test_frontend.py checks that every widget the pages make is here.
export { LayoutModel, LayoutView, StyleView } from "@jupyter-widgets/base";
export { TextView } from "./text.js"; // typing is never merged with another device's
export { TextareaView } from "./text.js"; // the same, for a box of several lines
export { HTMLView } from "./html.js"; // a value is never put into the page as markup
export { ListenModel } from "./listen.js"; // the score pad's Listen button (voice)
export { ListenView } from "./listen.js"; // records on the host's page, one line elsewhere
export {
  BoundedIntTextModel,
  BoxModel,
  BoxView,
  ButtonModel,
  ButtonStyleModel,
  ButtonView,
  CheckboxModel,
  CheckboxStyleModel,
  CheckboxView,
  ComboboxModel,
  ComboboxView,
  DescriptionStyleModel,
  DropdownModel,
  DropdownView,
  GridBoxModel,
  GridBoxView,
  HBoxModel,
  HBoxView,
  HTMLModel,
  HTMLStyleModel,
  IntTextView,
  TextModel,
  TextStyleModel,
  TextareaModel,
  VBoxModel,
  VBoxView,
} from "@jupyter-widgets/controls";
