import { request } from '@atrium/sdk';

export type Category = 'announcement' | 'hot' | 'featured' | 'news';
export const CATEGORIES: Category[] = ['announcement', 'hot', 'featured', 'news'];

export interface Article {
  id: string;
  category: Category;
  title: string;
  summary: string;
  coverUrl: string;
  /** A signed address of the cover, given with public articles to readers without a session. */
  coverSrc?: string | null;
  status: 'draft' | 'published';
  pinned: boolean;
  public: boolean;
  publishStart: string | null;
  publishEnd: string | null;
  publishedAt: string | null;
  views: number;
  authorName: string;
  updatedAt: string | null;
  content?: string;
}

export interface Page<T> { list: T[]; total: number; pageIndex: number; pageRows: number }

const BASE = 'portal/portal-article';

export const api = {
  panels: () => request<Record<Category, Article[]>>(`${BASE}/panels`, { silent: true }),
  list: (params: Record<string, unknown>) => request<Page<Article>>(`${BASE}/list`, { params }),
  detail: (id: string) => request<Article>(`${BASE}/detail`, { params: { id }, silent: true }),
  /** A published article marked public, read without a session (`/knowledge-details` signed out). */
  publicDetail: (id: string) => request<Article>(`${BASE}/public-detail`, { params: { id }, silent: true }),
  manageList: (params: Record<string, unknown>) => request<Page<Article>>(`${BASE}/admin/list`, { params }),
  get: (id: string) => request<Article>(`${BASE}/admin/get`, { params: { id } }),
  save: (data: Record<string, unknown>) => request<Article>(`${BASE}/admin/save`, { data }),
  publish: (id: string) => request<Article>(`${BASE}/admin/publish`, { data: { id } }),
  unpublish: (id: string) => request<Article>(`${BASE}/admin/unpublish`, { data: { id } }),
  remove: (id: string) => request<null>(`${BASE}/admin/delete`, { data: { id } }),
  preview: (content: string) => request<{ content: string }>(`${BASE}/admin/preview`, { data: { content } }),
};
