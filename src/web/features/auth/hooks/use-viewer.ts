// The spec's authentication state: current user, a loading flag that starts true and turns false
// once a session or its absence is known, and whether the user is an admin.
import { useMe } from '../api/get-me';

export interface ViewerState {
  user: { id: string; email: string; displayName: string } | null;
  isAdmin: boolean;
  isLoading: boolean;
}

export function useViewer(): ViewerState {
  const { data, isPending } = useMe();
  return { user: data?.user ?? null, isAdmin: data?.isAdmin ?? false, isLoading: isPending };
}
