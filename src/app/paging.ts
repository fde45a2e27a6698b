// Page sizes of the paged reads (SPEC Limits: an event catalog page, an object's locations).
export const PAGE = { default: 100, ceiling: 1000 } as const;
// Page sizes of the lists (GET /objects, /jobs, /structures, /backtests, lab /runs).
export const LIST_PAGE = { default: 50, ceiling: 500 } as const;
