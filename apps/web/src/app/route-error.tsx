import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { errorMessage } from '../lib/errors';

/** What a page that failed to load or render shows, inside the layout's landmarks. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : errorMessage(error);
  return (
    <main id="main" className="container">
      <h1>Something went wrong</h1>
      <p role="alert">{message}</p>
      <p>
        <Link to="/">Back to the start page</Link>
      </p>
    </main>
  );
}
