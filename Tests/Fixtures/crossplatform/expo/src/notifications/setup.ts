import * as Notifications from 'expo-notifications';

export async function registerWateringCategory() {
  await Notifications.setNotificationCategoryAsync('watering', [
    { identifier: 'watered', buttonTitle: 'Watered', options: { opensAppToForeground: false } },
    { identifier: 'snooze', buttonTitle: 'Remind me tonight', options: { opensAppToForeground: false, isDestructive: true } },
    { identifier: 'diary', textInput: { submitButtonTitle: 'Log', placeholder: 'How do they look?' } },
  ]);
}
