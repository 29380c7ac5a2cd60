/**
 * The organization's staff by id (`GET /console/api/staff`, every role): who took a conversation over is
 * shown by email, not by user id (issue 35 item 2). Loaded once per organization; a user added later is
 * shown by id until the next page load.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type ListPage } from './api';
import { useSession } from './session';

const loaded = new Map<string, Promise<Map<string, string>>>();

/** Staff user id → email of the session's organization (empty until loaded, or when the load failed). */
export function useStaff(): Map<string, string> {
  const { session } = useSession();
  const [staff, setStaff] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    let live = true;
    let load = loaded.get(session.org.id);
    if (!load) {
      load = api<ListPage<{ id: string; email: string }>>('GET', '/console/api/staff')
        .then((page) => new Map(page.data.map((u) => [u.id, u.email])))
        .catch(() => {
          loaded.delete(session.org.id);
          return new Map<string, string>();
        });
      loaded.set(session.org.id, load);
    }
    void load.then((m) => live && setStaff(m));
    return () => void (live = false);
  }, [session.org.id]);
  return staff;
}
