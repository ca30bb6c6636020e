// The links list's bulk bar: hidden until a row is ticked (it stays for a form sent back with an
// error), with how many are ticked in its legend. Without this file the bar is always shown.
{
  const bar = document.querySelector('[data-bulk-bar]');
  const form = bar?.closest('form');
  if (bar && form) {
    const count = bar.querySelector('[data-bulk-count]');
    const update = () => {
      const ticked = form.querySelectorAll('input[name="ids[]"]:checked').length;
      bar.hidden = ticked === 0 && !bar.hasAttribute('data-bulk-open');
      if (count) count.textContent = ticked > 0 ? `· ${ticked} ${count.getAttribute('data-suffix') ?? ''}` : '';
    };
    // After the change's other handlers ("select all" ticks the rows from app.js's, on the document).
    form.addEventListener('change', () => setTimeout(update));
    update();
  }
}
