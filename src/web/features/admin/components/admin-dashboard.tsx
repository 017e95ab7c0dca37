// The admin dashboard's content below the title: the summary cards and the four tabs, Public
// Requests first. AdminPage renders it only for admins; the server checks every call anyway. The
// open tab is in the address (?tab=), so a reload or a shared link returns to it.
import { useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { ContentModerationTab } from './content-moderation-tab';
import { ManagePersonalitiesTab } from './manage-personalities-tab';
import { OrderingTab } from './ordering-tab';
import { PublicRequestsTab } from './public-requests-tab';
import { SummaryCards } from './summary-cards';

const tabs = [
  { value: 'requests', label: 'Public Requests', Content: PublicRequestsTab },
  { value: 'manage', label: 'Manage Personalities', Content: ManagePersonalitiesTab },
  { value: 'moderation', label: 'Content Moderation', Content: ContentModerationTab },
  { value: 'ordering', label: 'Personality Ordering', Content: OrderingTab },
] as const;

type TabValue = (typeof tabs)[number]['value'];
const DEFAULT_TAB: TabValue = 'requests';
const isTab = (value: string | null): value is TabValue => tabs.some((t) => t.value === value);

export function AdminDashboard() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const current = isTab(requested) ? requested : DEFAULT_TAB;
  // Replaces the entry rather than adding one: Back leaves the dashboard instead of stepping through tabs.
  const open = (value: string) =>
    setParams(
      (next) => {
        if (value === DEFAULT_TAB) next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  return (
    <section aria-label="Admin tools" data-testid="admin-dashboard" className="grid gap-8">
      <SummaryCards />
      <Tabs value={current} onValueChange={open} className="gap-5">
        {/* Two rows of two on phones, one row from tablets up. */}
        <TabsList className="grid h-auto w-full grid-cols-2 md:inline-flex md:h-10 md:w-fit">
          {tabs.map((t) => (
            <TabsTrigger key={t.value} value={t.value} className="h-9 px-2 text-xs sm:px-3 sm:text-sm md:h-full">
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {tabs.map(({ value, Content }) => (
          <TabsContent key={value} value={value}>
            <Content />
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}
