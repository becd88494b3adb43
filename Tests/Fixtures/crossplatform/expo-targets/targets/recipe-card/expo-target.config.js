/** @type {import('@bacons/apple-targets/app.plugin').Config} */
module.exports = {
  type: 'notification-content',
  name: 'RecipeCard',
  bundleIdentifier: '.recipe-card',
  deploymentTarget: '17.0',
};
