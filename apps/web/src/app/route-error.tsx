import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { errorMessage } from '../lib/errors';
import { ROUTE_ERROR } from './strings';

/** What a page that failed to load or render shows, inside the layout's landmarks. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : errorMessage(error);
  return (
    <main id="main" className="container">
      <h1>{ROUTE_ERROR.title}</h1>
      <p role="alert">{message}</p>
      <p>
        <Link to="/">{ROUTE_ERROR.back}</Link>
      </p>
    </main>
  );
}
