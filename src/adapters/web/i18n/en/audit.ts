/** A workspace's audit log: /account/workspaces/{id}/audit. */
export const audit = {
  title: 'Audit log',
  intro:
    'Every change made in this workspace: who made it, how, and what it changed. Secrets show only that they changed.',
  back: 'Back to the account',
  filters: 'Filter the audit log',
  fields: {
    actor: 'Person (user id)',
    action: 'Action',
    target_type: 'Record type',
    target_id: 'Record id',
    from: 'From',
    to: 'To',
  },
  actionHint: 'For example link.updated, or link for all of a type.',
  apply: 'Filter',
  clear: 'Clear filters',
  download: 'Download as CSV',
  caption: 'Changes, newest first',
  empty: 'No changes match.',
  columns: { at: 'When', actor: 'Who', via: 'How', action: 'Action', target: 'Record', changes: 'Changes' },
  operator: 'The operator',
  unknownPerson: (id: number) => `User ${id}`,
  throughKey: (name: string) => `with key ${name}`,
  via: { web: 'Web app', api: 'API', cli: 'Command line', import: 'Import' } as Record<string, string>,
  changed: 'changed',
  none: '—',
};
