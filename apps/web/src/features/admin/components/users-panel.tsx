import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { ROLES, type Role, type User, useSetRole, useUsers } from '../api/users';
import { ADMIN } from '../strings';

const S = ADMIN.users;

/**
 * Accounts with a search by email or name, a role filter and a page at a time; each row changes the account's
 * role. The API's refusal (the last ADMIN) is shown as it words it, beside the row.
 */
export function UsersPanel({ me, roleNames }: { me: string; roleNames: Record<string, string> }) {
  const [text, setText] = useState('');
  const [filter, setFilter] = useState<{ q: string; role: Role | ''; page: number }>({ q: '', role: '', page: 1 });
  const users = useUsers(filter);
  const roleOptions = ROLES.map((r) => ({ value: r, label: roleNames[r] ?? r }));
  return (
    <>
      <form
        className="row search-row"
        aria-label={S.find}
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ ...filter, q: text.trim(), page: 1 });
        }}
      >
        <Field
          id="user-search"
          label={S.search}
          name="q"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={errorFor(users.error, 'q')}
        />
        <SelectField
          label={S.roleFilter}
          name="role"
          value={filter.role}
          onChange={(role) => setFilter({ ...filter, role: role as Role | '', page: 1 })}
          options={[{ value: '', label: S.anyRole }, ...roleOptions]}
        />
        <div className="actions">
          <button type="submit">{S.submit}</button>
          {(filter.q || filter.role) && (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setText('');
                setFilter({ q: '', role: '', page: 1 });
              }}
            >
              {S.clear}
            </button>
          )}
        </div>
      </form>
      {users.isPending ? (
        <Loading />
      ) : users.error ? (
        <ErrorAlert error={users.error} />
      ) : (
        <>
          <p role="status">{S.found(users.data.pagination.total)}</p>
          {users.data.items.length === 0 ? (
            <p>{S.none}</p>
          ) : (
            <ScrollTable label={S.title}>
              <table>
                <caption className="visually-hidden">{S.title}</caption>
                <thead>
                  <tr>
                    <th scope="col">{S.columns.name}</th>
                    <th scope="col">{S.columns.email}</th>
                    <th scope="col">{S.columns.verified}</th>
                    <th scope="col">{S.columns.created}</th>
                    <th scope="col">{S.columns.role}</th>
                  </tr>
                </thead>
                <tbody>
                  {users.data.items.map((u) => (
                    <UserRow key={u.id} user={u} isMe={u.id === me} roleOptions={roleOptions} roleNames={roleNames} />
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          )}
          <Pager
            label={S.title}
            page={users.data.pagination.page}
            totalPages={users.data.pagination.totalPages}
            onPage={(page) => setFilter({ ...filter, page })}
          />
        </>
      )}
    </>
  );
}

function UserRow({
  user,
  isMe,
  roleOptions,
  roleNames,
}: {
  user: User;
  isMe: boolean;
  roleOptions: { value: string; label: string }[];
  roleNames: Record<string, string>;
}) {
  const [role, setRole] = useState<Role>(user.role);
  const setUserRole = useSetRole();
  return (
    <tr>
      <th scope="row">
        {user.name} {isMe && <span className="muted">{S.you}</span>}
      </th>
      <td className="mono">{user.email}</td>
      <td>{user.emailVerified ? S.yes : S.no}</td>
      <td>{formatDateTime(user.createdAt)}</td>
      <td>
        <form
          className="role-form"
          onSubmit={(e) => {
            e.preventDefault();
            setUserRole.mutate({ userId: user.id, role });
          }}
        >
          <label className="visually-hidden" htmlFor={`role-${user.id}`}>
            {S.newRole(user.name)}
          </label>
          <select id={`role-${user.id}`} name="role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {roleOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <button
            type="submit"
            className="secondary small"
            aria-label={S.changeFor(user.name)}
            disabled={setUserRole.isPending || role === user.role}
          >
            {S.change}
          </button>
        </form>
        <ErrorAlert error={setUserRole.error} />
        {setUserRole.isSuccess && <Notice>{S.changed(user.name, roleNames[setUserRole.data.role] ?? role)}</Notice>}
      </td>
    </tr>
  );
}
