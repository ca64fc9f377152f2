/** The page envelope every list answers with (`{data, pagination}`), and its iteration across pages. */
export interface Pagination {
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
  /** `gte`: the total was counted up to a cap and is a lower bound; later pages may still hold items. */
  totalRelation?: "eq" | "gte";
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/** Whether another page may hold items after this one. */
export function hasNextPage(page: Page<unknown>): boolean {
  if (page.data.length === 0) return false;
  const { pagination } = page;
  if (pagination.totalRelation === "gte") return page.data.length >= pagination.perPage;
  return pagination.page < pagination.totalPages;
}

/**
 * What a list operation returns: awaited, the page asked for (`await aula.users.list({ query: { page: 2 } })`);
 * iterated, every item from that page on (`for await (const user of aula.users.list())`), fetching one page at a
 * time as the loop needs it. `pages()` iterates whole pages.
 */
export class PagePromise<P, T> implements PromiseLike<P>, AsyncIterable<T> {
  #first: Promise<P> | undefined;

  constructor(
    private readonly fetchPage: (page: number | undefined) => Promise<P>,
    private readonly startPage: number | undefined,
  ) {}

  #firstPage(): Promise<P> {
    this.#first ??= this.fetchPage(this.startPage);
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting a list gives its first page, as with a Promise.
  then<A = P, B = never>(
    onFulfilled?: ((value: P) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<P | B> {
    return this.#firstPage().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<P> {
    return this.#firstPage().finally(onFinally);
  }

  async *pages(): AsyncGenerator<P, void, undefined> {
    let page = await this.#firstPage();
    yield page;
    while (hasNextPage(page as Page<T>)) {
      page = await this.fetchPage((page as Page<T>).pagination.page + 1);
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* (page as Page<T>).data;
  }

  /** Every item from the page asked for on, in one array (mind the size of the list). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
