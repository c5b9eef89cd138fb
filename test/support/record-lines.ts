/** One valid NDJSON line of the import format: the nine fields of wallpaper `id`. */
export const recordLine = (id: number) =>
  JSON.stringify({
    id,
    title: `Wallpaper ${id}`,
    description: '',
    url: `https://img.example/full/${id}.jpg`,
    thumbnail: `https://img.example/thumb/${id}.jpg`,
    resolution: '1920x1080',
    category: 'nature',
    downloads: id,
    created_at: '2024-01-01T00:00:00Z',
  });
