import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateOrderInput } from '../../../../shared/schemas/admin';
import { api, unwrap } from '../../../lib/api-client';
import { invalidateAfterAdminChange } from './invalidate-after-admin-change';

/** Saves every public personality's order in one request (one transaction on the server). */
export async function saveOrder(updates: UpdateOrderInput['updates']) {
  return unwrap(api.api.admin.personalities.order.$put({ json: { updates } }));
}

export function useSaveOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveOrder,
    onSuccess: () => invalidateAfterAdminChange(queryClient),
  });
}
