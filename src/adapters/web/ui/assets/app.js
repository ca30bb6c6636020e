// Progressive enhancement only: every page works without this file.
// Copy buttons: <button type="button" data-copy="text to copy">.
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!target || !navigator.clipboard) return;
  const text = target.getAttribute('data-copy') ?? '';
  navigator.clipboard.writeText(text).then(() => {
    const label = target.textContent;
    target.textContent = target.getAttribute('data-copied') ?? 'Copied';
    setTimeout(() => {
      target.textContent = label;
    }, 1500);
  });
});

// "Select all" checkboxes: <input type="checkbox" data-select-all="name-of-row-checkboxes">.
document.addEventListener('change', (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.selectAll) return;
  for (const row of document.querySelectorAll(`input[type="checkbox"][name="${CSS.escape(box.dataset.selectAll)}"]`)) {
    if (row instanceof HTMLInputElement) row.checked = box.checked;
  }
});

// Forms whose changes apply at once: <form data-autosubmit> (a submit button stays for no-JS use).
document.addEventListener('change', (event) => {
  const form = event.target instanceof Element ? event.target.closest('form[data-autosubmit]') : null;
  if (form instanceof HTMLFormElement) form.requestSubmit();
});

// Copy buttons are hidden until this script can make them work.
for (const button of document.querySelectorAll('[data-copy][hidden]')) button.removeAttribute('hidden');

// A result the person came back for (a link just made): focused and selected, ready to copy.
{
  const result = document.querySelector('input[data-focus-on-load]');
  if (result instanceof HTMLInputElement) {
    result.focus();
    result.select();
  }
}
