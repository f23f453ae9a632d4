/**
 * A list virtualised against the window's scroll (@tanstack/react-virtual): however long the
 * history, only the rows in and near the viewport are in the DOM, each measured once rendered.
 * It stays a real list for assistive technology: every rendered row says where it sits
 * (aria-posinset of aria-setsize), and scrolling with the keyboard (arrows, Page Down, End)
 * reaches the oldest row. The activity list and the inbox use it.
 */
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';
import { useDocumentTop } from '../../hooks/useDocumentTop';
import { cx } from '../cx';
import '../../styles/long-lists.css';

/** How a list's rows are laid out, for the virtualiser. */
export interface VirtualRows {
  /** A row's height before it is measured. */
  estimatePx: number;
  gapPx: number;
  /** Rows rendered beyond each edge of the viewport, so a fast scroll shows no blank. */
  overscan: number;
}

export interface WindowVirtualListProps<T extends { id: string }> {
  items: readonly T[];
  /** The list's accessible name. */
  label: string;
  className: string;
  rows: VirtualRows;
  rowClassName?(item: T): string;
  children(item: T): ReactNode;
}

export function WindowVirtualList<T extends { id: string }>({
  items,
  label,
  className,
  rows,
  rowClassName,
  children,
}: WindowVirtualListProps<T>) {
  const listRef = useRef<HTMLUListElement>(null);
  const top = useDocumentTop(listRef);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => rows.estimatePx,
    gap: rows.gapPx,
    overscan: rows.overscan,
    scrollMargin: top,
    getItemKey: (i) => items[i]!.id,
  });
  return (
    <ul
      ref={listRef}
      className={cx(className, 'virtual-list')}
      aria-label={label}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => {
        const item = items[row.index]!;
        return (
          <li
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            aria-setsize={items.length}
            aria-posinset={row.index + 1}
            className={cx(rowClassName?.(item), 'virtual-list__row')}
            style={{ transform: `translateY(${row.start - top}px)` }}
          >
            {children(item)}
          </li>
        );
      })}
    </ul>
  );
}
