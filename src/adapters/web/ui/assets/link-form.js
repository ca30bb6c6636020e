// The link form (link-targeting-view.ts, link-preview-view.ts): targeting rows added and taken
// out in the page, no request; the preview card fetched again as the form changes. Without this
// file the same buttons post the form and the page comes back with every field kept.
{
  const ROW_CONTROLS = '[name], [id], [for], [aria-describedby]';

  /** Names, ids and labels of a list's rows follow their order, as the server numbers them. */
  const renumber = (list) => {
    const name = list.dataset.targetList;
    const rows = list.querySelectorAll(':scope > .target-rows > .target-row');
    const ids = new RegExp(`(^|\\s)f-${name}-\\d+-`, 'g');
    rows.forEach((row, i) => {
      for (const el of row.querySelectorAll(ROW_CONTROLS)) {
        for (const attr of ['id', 'for', 'aria-describedby']) {
          const value = el.getAttribute(attr);
          if (value) el.setAttribute(attr, value.replace(ids, `$1f-${name}-${i}-`));
        }
        const field = el.getAttribute('name');
        if (field?.startsWith(`${name}[`)) el.setAttribute('name', field.replace(/^(\w+)\[\d+\]/, `$1[${i}]`));
        if (field === 'remove_row') el.setAttribute('value', `${name}:${i}`);
      }
      for (const el of row.querySelectorAll('[data-label]'))
        el.textContent = el.dataset.label.replace('{n}', String(i + 1));
      for (const el of row.querySelectorAll('[data-aria-label]'))
        el.setAttribute('aria-label', el.dataset.ariaLabel.replace('{n}', String(i + 1)));
    });
    const add = list.querySelector(':scope > .actions > button[name="add_row"]');
    if (add) add.disabled = rows.length >= Number(list.dataset.rowsMax);
    const empty = list.querySelector(':scope > [data-rows-empty]');
    if (empty) empty.hidden = rows.length > 0;
  };

  const firstControl = (row) => row?.querySelector('select, input') ?? null;

  document.addEventListener('click', (event) => {
    const button =
      event.target instanceof Element
        ? event.target.closest('button[name="add_row"], button[name="remove_row"]')
        : null;
    const list = button?.closest('[data-target-list]');
    if (!list) return;
    event.preventDefault();
    const rows = list.querySelector(':scope > .target-rows');
    if (button.name === 'add_row') {
      const row = list.querySelector(':scope > template')?.content.firstElementChild?.cloneNode(true);
      if (!row || button.disabled) return;
      rows.append(row);
      renumber(list);
      firstControl(row)?.focus();
    } else {
      const row = button.closest('.target-row');
      const next = row.nextElementSibling ?? row.previousElementSibling;
      row.remove();
      renumber(list);
      (firstControl(next) ?? list.querySelector('button[name="add_row"]'))?.focus();
      // An empty row changes no destination: only a removal asks for the preview again.
      list.closest('form')?.dispatchEvent(new Event('change', { bubbles: true }));
    }
  });

  // The preview card: the form sent (its passwords left out) after a pause in typing; an answer
  // overtaken by a later change is dropped.
  const PAUSE_MS = 300;
  const SECRETS = new Set(['password', 'privacy_password']);
  for (const form of document.querySelectorAll('form[data-preview]')) {
    const card = document.getElementById(form.dataset.preview);
    if (!card) continue;
    // The card follows the form from now on: the note that it shows the last post goes.
    for (const note of document.querySelectorAll('[data-preview-note]')) note.hidden = true;
    let timer;
    let pending;
    let sent = '';
    const refresh = async () => {
      // Blank fields say nothing the card shows (an empty row, say): without them, a change
      // that alters nothing visible (a field left after its input was sent) asks for nothing.
      const body = new URLSearchParams(
        [...new FormData(form)].filter(
          ([name, value]) => typeof value === 'string' && value !== '' && !SECRETS.has(name),
        ),
      );
      if (body.toString() === sent) return;
      sent = body.toString();
      pending?.abort();
      pending = new AbortController();
      try {
        const response = await fetch(form.dataset.previewUrl, {
          method: 'POST',
          body,
          signal: pending.signal,
          credentials: 'same-origin',
        });
        if (!response.ok) throw new Error(String(response.status));
        card.innerHTML = await response.text();
      } catch {
        // A dropped or refused request leaves the card as it was, and the next change tries again.
        if (sent === body.toString()) sent = '';
      }
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, PAUSE_MS);
    };
    form.addEventListener('input', later);
    form.addEventListener('change', later);
  }
}
