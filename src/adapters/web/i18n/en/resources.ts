/** Words the pixels, spaces and domains screens share (each screen's own sentences are in its file). */
export const resources = {
  searchButton: 'Search',
  clearSearch: 'Clear',
  sort: 'Order',
  newest: 'Newest first',
  oldest: 'Oldest first',
  created: 'Created',
  name: 'Name',
  back: 'Back to the list',
  deleteButton: 'Delete',
  keep: 'Keep it',
  editLabel: (name: string) => `Edit ${name}`,
  deleteLabel: (name: string) => `Delete ${name}`,
} as const;
