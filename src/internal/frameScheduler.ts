import { animationFrameScheduler, asyncScheduler, type SchedulerLike } from "rxjs";

/**
 * One task per painted frame in a browser (animation frames), else one per
 * macrotask (the async scheduler): the pace for anything that only needs to
 * keep up with what a person can see.
 */
export const frameScheduler = (): SchedulerLike => (typeof requestAnimationFrame === "function" ? animationFrameScheduler : asyncScheduler);
