// Stylesheets are Vite's business; component tests import them as nothing.
module.exports = {};
