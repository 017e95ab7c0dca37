import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { useViewer } from '../../auth/hooks/use-viewer';
import { personalityKeys } from './personality-keys';

export const listPersonalitiesQueryOptions = (viewerId: string | null) =>
  queryOptions({
    queryKey: personalityKeys.list(viewerId),
    queryFn: async () => (await unwrap(api.api.personalities.$get())).personalities,
    // Others change it (an owner deletes, renames or unshares; an admin publishes): coming back to
    // the tab reads it again once it is stale.
    refetchOnWindowFocus: true,
  });

/** The library the current viewer may see; waits until we know who the viewer is. */
export function useListPersonalities() {
  const viewer = useViewer();
  return useQuery({ ...listPersonalitiesQueryOptions(viewer.user?.id ?? null), enabled: !viewer.isLoading });
}
