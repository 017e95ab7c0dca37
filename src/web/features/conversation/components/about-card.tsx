// Side panel: "About {name}", the personality's description with its links made safe.
import { SafeLinks } from '../../../lib/safe-links';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

export function AboutCard({ name, description, avatarUrl }: { name: string; description: string | null; avatarUrl?: string | null }) {
  return (
    <Card className="min-w-0 gap-3">
      <CardHeader className="min-w-0 flex-row items-center gap-3">
        {avatarUrl && <img src={avatarUrl} alt="" width={48} height={48} data-testid="about-avatar" className="size-12 shrink-0 rounded-full border object-cover" />}
        <CardTitle className="min-w-0 text-lg [overflow-wrap:anywhere]">About {name}</CardTitle>
      </CardHeader>
      <CardContent className="min-w-0">
        {description ? (
          <p dir="auto" className="text-sm leading-relaxed whitespace-pre-line text-muted-foreground [overflow-wrap:anywhere]">
            <SafeLinks text={description} />
          </p>
        ) : (
          <p className="text-sm text-muted-foreground/80 italic">No description</p>
        )}
      </CardContent>
    </Card>
  );
}
