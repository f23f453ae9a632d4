/**
 * Where an element starts in the document (its offset from the top of the page), kept current
 * when anything above it changes size: the scrollMargin of a window virtualizer (the activity
 * list, the inbox).
 */
import { useLayoutEffect, useState, type RefObject } from 'react';

export function useDocumentTop(ref: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setTop(Math.round(el.getBoundingClientRect().top + window.scrollY));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref]);
  return top;
}
