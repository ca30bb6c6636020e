/** The admin screens. */
export const admin = {
  title: 'Admin',
} as const;
