import { LocalNotifications } from '@capacitor/local-notifications';

export const HARVEST_TYPE = 'HARVEST_READY';

export async function registerHarvestActions() {
  await LocalNotifications.registerActionTypes({
    types: [
      {
        id: HARVEST_TYPE,
        iosHiddenPreviewsBodyPlaceholder: 'Harvest news',
        actions: [
          { id: 'pick', title: 'Pick now', foreground: true, destructive: true },
          { id: 'note', title: 'Add a note', input: true, inputButtonTitle: 'Save', inputPlaceholder: 'Which rows?' },
          { id: 'skip', title: 'Skip', destructive: true },
        ],
      },
    ],
  });
}
