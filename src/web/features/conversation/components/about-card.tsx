// Side panel: "About {name}", the personality's description with its links made safe.
import { SafeLinks } from '../../../lib/safe-links';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

export function AboutCard({ name, description }: { name: string; description: string | null }) {
  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle className="text-lg break-words">About {name}</CardTitle>
      </CardHeader>
      <CardContent>
        {description ? (
          <p className="text-sm leading-relaxed break-words whitespace-pre-line text-muted-foreground">
            <SafeLinks text={description} />
          </p>
        ) : (
          <p className="text-sm text-muted-foreground/80 italic">No description</p>
        )}
      </CardContent>
    </Card>
  );
}
