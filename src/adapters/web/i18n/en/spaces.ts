/** The spaces screens. */
export const spaces = {
  title: 'Spaces',
  intro: 'Spaces group your links; each has a colour.',
  caption: 'Your spaces',
  add: 'New space',
  newTitle: 'New space',
  editTitle: (name: string) => `Edit space ${name}`,
  deleteTitle: (name: string) => `Delete space ${name}?`,
  deleteEffect: 'Its links are kept, in no space. This cannot be undone.',
  created: (name: string) => `Space ${name} created.`,
  updated: (name: string) => `Space ${name} saved.`,
  deleted: (name: string) => `Space ${name} deleted.`,
  empty: 'No spaces yet.',
  noMatch: 'No space matches this search.',
  searchLabel: 'Search spaces by name',
  fields: {
    name: 'Name',
    color: 'Colour',
  },
  colours: {
    1: 'Blue',
    2: 'Green',
    3: 'Yellow',
    4: 'Red',
    5: 'Purple',
    6: 'Grey',
  },
} as const;
