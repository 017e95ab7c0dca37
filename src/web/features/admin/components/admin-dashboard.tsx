/**
 * The admin dashboard's content: summary cards and the four tabs (Public Requests, Manage
 * Personalities, Content Moderation, Personality Ordering) arrive in a later issue and go here.
 * AdminPage renders it only for admins, below the title and subtitle.
 */
export function AdminDashboard() {
  return (
    <section
      aria-label="Admin tools"
      data-testid="admin-dashboard"
      className="rounded-xl border border-dashed bg-card/60 px-6 py-12 text-center text-sm text-muted-foreground"
    >
      Admin tools will appear here.
    </section>
  );
}
