// Applies the remembered theme before the first paint, so a chosen dark theme never flashes
// light. The key is THEME_STORAGE_KEY in src/app/theme.ts.
(function () {
  try {
    var theme = window.localStorage.getItem('session-continuation.theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  } catch (error) {
    // Storage refused (private mode): the device's theme applies.
  }
})();
