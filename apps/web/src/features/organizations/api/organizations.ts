import type { components, paths } from '@rootline/sdk';
import { RootlineError } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type Organization = components['schemas']['Organization'];
export type MyOrganization = components['schemas']['MyOrganization'];
export type Member = components['schemas']['OrganizationMember'];
export type Invitation = components['schemas']['OrganizationInvitation'];
export type OrganizationInput = components['schemas']['OrganizationInput'];
export type OrgRole = Member['role'];
export type OrgKind = Organization['kind'];
type ListQuery = NonNullable<paths['/api/organizations']['get']['parameters']['query']>;

export const ORG_ROLES = ['owner', 'manager', 'member', 'viewer'] as const satisfies readonly OrgRole[];
export const ORG_KINDS = ['co-op', 'seed-library', 'farm', 'company', 'other'] as const satisfies readonly OrgKind[];

const ORGS = ['organizations'] as const;

/** The reason a refusal names (`LAST_OWNER`, `OWNER_ONLY`), if any. */
export function refusalReason(error: unknown): string | undefined {
  if (!(error instanceof RootlineError)) return undefined;
  const reason = (error.details as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

/** A page of public organizations, narrowed by words and kind. */
export function useOrganizations(filter: { q: string; kind: OrgKind | ''; page: number }) {
  const query: ListQuery = { page: filter.page, limit: 20 };
  if (filter.q) query.q = filter.q;
  if (filter.kind) query.kind = filter.kind;
  return useQuery({
    queryKey: [...ORGS, 'list', query],
    queryFn: () => unwrapPage(api.GET('/api/organizations', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** The signed-in person's organizations with their role, asked for them alone (whomever the tab acts for). */
/** The organizations of the person signed in; `enabled` false asks nothing (a visitor has none). */
export function useMyOrganizations(enabled = true) {
  return useQuery({
    enabled,
    queryKey: [...ORGS, 'mine'],
    queryFn: () => unwrap(api.GET('/api/organizations/mine', { headers: { 'Rootline-Act-As': '' } })),
  });
}

/** Whether a role may act for its organization in the app (change things for it): member and up. */
export const actsFor = (role: OrgRole) => role !== 'viewer';

export function useOrganization(organizationId: string) {
  return useQuery({
    queryKey: [...ORGS, 'one', organizationId],
    queryFn: () => unwrap(api.GET('/api/organizations/{organizationId}', { params: { path: { organizationId } } })),
    retry: false,
  });
}

export function useCreateOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OrganizationInput) => unwrap(api.POST('/api/organizations', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ORGS }),
  });
}

export function useMembers(organizationId: string) {
  return useQuery({
    queryKey: [...ORGS, 'members', organizationId],
    queryFn: () =>
      unwrap(api.GET('/api/organizations/{organizationId}/members', { params: { path: { organizationId } } })),
    retry: false,
  });
}

export function useChangeRole(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: OrgRole }) =>
      unwrap(
        api.PATCH('/api/organizations/{organizationId}/members/{userId}', {
          params: { path: { organizationId, userId } },
          body: { role },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ORGS }),
  });
}

export function useRemoveMember(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(
        api.DELETE('/api/organizations/{organizationId}/members/{userId}', {
          params: { path: { organizationId, userId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ORGS }),
  });
}

export function useLeave(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/organizations/{organizationId}/leave', { params: { path: { organizationId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ORGS }),
  });
}

export function useInvitations(organizationId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...ORGS, 'invitations', organizationId],
    queryFn: () =>
      unwrap(api.GET('/api/organizations/{organizationId}/invitations', { params: { path: { organizationId } } })),
    enabled,
  });
}

export function useInvite(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: OrgRole }) =>
      unwrap(
        api.POST('/api/organizations/{organizationId}/invitations', { params: { path: { organizationId } }, body }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: [...ORGS, 'invitations', organizationId] }),
  });
}

export function useRevoke(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      unwrap(
        api.DELETE('/api/organizations/{organizationId}/invitations/{invitationId}', {
          params: { path: { organizationId, invitationId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: [...ORGS, 'invitations', organizationId] }),
  });
}

export function useInvitationPreview(token: string | null) {
  return useQuery({
    queryKey: [...ORGS, 'preview', token],
    queryFn: () => unwrap(api.POST('/api/organizations/invitations/preview', { body: { token: token as string } })),
    enabled: token !== null,
    retry: false,
  });
}

export function useAnswerInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ token, accept }: { token: string; accept: boolean }) =>
      unwrap(
        accept
          ? api.POST('/api/organizations/invitations/accept', { body: { token } })
          : api.POST('/api/organizations/invitations/decline', { body: { token } }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ORGS }),
  });
}
