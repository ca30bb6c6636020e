// Menus are <details data-menu>: they open and close without this file. It only closes an open
// menu on a click outside it or on Escape (focus goes back to its button), and keeps one open.
{
  const openMenus = () => document.querySelectorAll('details[data-menu][open]');

  document.addEventListener('click', (event) => {
    const inside = event.target instanceof Element ? event.target.closest('details[data-menu]') : null;
    for (const menu of openMenus()) if (menu !== inside) menu.removeAttribute('open');
  });

  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const menu of openMenus()) {
      const hadFocus = menu.contains(document.activeElement);
      menu.removeAttribute('open');
      if (hadFocus) menu.querySelector('summary')?.focus();
    }
  });
}
