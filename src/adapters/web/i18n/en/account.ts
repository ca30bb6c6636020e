/** The account screens. */
export const account = {
  title: 'Account',
} as const;
