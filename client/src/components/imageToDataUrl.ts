/** The server keeps a knowledge base's photo as a PNG or JPEG data URL of at most 65,535 characters. */
export const PHOTO_TYPES = ["image/png", "image/jpeg"];
const MAX_DATA_URL = 65535;

function loadImage(file: File): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error("unreadable image"));
    };
    image.src = url;
  });
}

/** The picture scaled down (at most 256 px a side, smaller if needed) until its data URL fits the server's limit. */
export async function photoDataUrl(file: File): Promise<string> {
  const image = await loadImage(file);
  const type = file.type === "image/png" ? "image/png" : "image/jpeg";
  for (const side of [256, 192, 128, 96, 64]) {
    const scale = Math.min(1, side / Math.max(image.naturalWidth, image.naturalHeight));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    canvas.getContext("2d")?.drawImage(image, 0, 0, canvas.width, canvas.height);
    const url = canvas.toDataURL(type, 0.85);
    if (url.length <= MAX_DATA_URL) return url;
  }
  throw new Error("image too large");
}
