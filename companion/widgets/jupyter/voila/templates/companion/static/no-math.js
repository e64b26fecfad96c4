// The companion's pages show no mathematics. Voila typesets a blank element as
// it starts, which would load MathJax (about 0.9 MB of script) on every page;
// this stand-in for MathJax 2 typesets nothing. It also keeps a name such as
// "$x$" plain text.
window.MathJax = {
  Hub: {
    Config: function () {},
    Configured: function () {},
    Queue: function () {},
    Register: { StartupHook: function () {} }
  }
};
