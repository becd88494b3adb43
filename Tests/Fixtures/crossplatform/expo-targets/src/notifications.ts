import * as Notifications from 'expo-notifications';

export const RECIPE_READY = 'recipe-ready';

export async function registerCategories() {
  await Notifications.setNotificationCategoryAsync(RECIPE_READY, [
    { identifier: 'start-cooking', buttonTitle: 'Start cooking', options: { opensAppToForeground: true } },
    { identifier: 'save', buttonTitle: 'Save for later', options: { opensAppToForeground: false } },
  ]);
}
