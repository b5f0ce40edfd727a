// Routing: the view and its state live in the query string, so that a link can be shared.
import React from 'react';

const h = React.createElement;

export function currentParams() {
  return Object.fromEntries(new URLSearchParams(window.location.search));
}

function href(params) {
  const query = new URLSearchParams(
    Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  );
  return `/?${query.toString()}`;
}

export function navigate(params) {
  window.history.pushState(null, '', href(params));
  window.dispatchEvent(new Event('citegraph:navigate'));
}

/** A form's submit handler: the view it asks for becomes the page's state (and the URL). */
export function submitTo(params) {
  return (event) => {
    event.preventDefault();
    navigate(params);
  };
}

/** A link inside the page (a plain link for a new tab, the page's own navigation for a click). */
export function Link({ to, children, ...rest }) {
  return h(
    'a',
    {
      href: href(to),
      onClick: (event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      },
      ...rest,
    },
    children,
  );
}
