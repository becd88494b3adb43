import type { ExpoConfig } from 'expo/config';

const IS_PREVIEW = process.env.APP_VARIANT === 'preview';

const config: ExpoConfig = {
  name: 'Marigold',
  slug: 'marigold',
  ios: {
    bundleIdentifier: IS_PREVIEW ? 'org.example.marigold.preview' : 'org.example.marigold',
  },
  plugins: [
    ['expo-notifications', { sounds: ['./assets/chime.wav'] }],
    '@bacons/apple-targets',
    './plugins/withGardenWidget',
  ],
};

export default config;
