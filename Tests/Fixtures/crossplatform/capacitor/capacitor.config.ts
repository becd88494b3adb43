import type { CapacitorConfig } from '@capacitor/cli';

const config: CapacitorConfig = {
  appId: 'org.example.orchard',
  appName: 'Orchard',
  webDir: 'dist',
};

export default config;
