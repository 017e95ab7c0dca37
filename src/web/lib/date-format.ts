// Dates as the spec shows them everywhere (section 9): "MMM d, yyyy HH:mm", in the viewer's time zone.
import { format } from 'date-fns';

export const formatDateTime = (iso: string): string => format(new Date(iso), 'MMM d, yyyy HH:mm');
