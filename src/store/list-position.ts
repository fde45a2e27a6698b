// Where a list read newest first stopped: the (created_at, id) of the last row of a page. The next
// page is the rows strictly after it in that order (a keyset, not an offset), so rows added while a
// client pages, which are newer, never shift a page: no row is shown twice or skipped.
export interface ListPosition {
  created_at: string;
  id: string;
}
