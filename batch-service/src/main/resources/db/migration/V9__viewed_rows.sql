-- Rows opened and waiting for a place on the realtime lane (render on first view), first opened first: the admission
-- after every open reads them by this index. Without it, each open of a link scanned the whole batch_row table
-- (578 ms at 1.1 million rows, on the way from the open to the render's first segment; docs/performance.md).
CREATE INDEX batch_row_viewed ON batch_row (submitted_at) WHERE status = 'VIEWED';
