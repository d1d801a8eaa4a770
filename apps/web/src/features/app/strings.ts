/** Words of the app itself, outside any one feature. */
export const APP = {
  update: {
    message: 'A new version of Rootline is ready.',
    reload: 'Reload',
  },
} as const;
