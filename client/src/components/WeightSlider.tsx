import { HStack, Slider, Text } from "@chakra-ui/react";
import { useFixed } from "../hooks/useFixed";

export const round2 = (value: number) => Math.round(value * 100) / 100;

interface WeightSliderProps {
  value: number;
  onChange: (value: number) => void;
  label: string;
  testId: string;
  disabled?: boolean;
}

/** A 0…1 slider in hundredths, its value beside it with two decimals. */
export function WeightSlider({ value, onChange, label, testId, disabled }: WeightSliderProps) {
  const fixed = useFixed();
  return (
    <HStack gap="4" width="full">
      <Slider.Root
        flex="1"
        min={0}
        max={1}
        step={0.01}
        value={[value]}
        onValueChange={(details) => onChange(round2(details.value[0]))}
        colorPalette="brand"
        disabled={disabled}
        aria-label={[label]}
        data-testid={testId}
      >
        <Slider.Control>
          <Slider.Track>
            <Slider.Range />
          </Slider.Track>
          <Slider.Thumbs />
        </Slider.Control>
      </Slider.Root>
      <Text fontFamily="mono" fontSize="sm" width="10" textAlign="end" data-testid={`${testId}-value`}>
        {fixed(value)}
      </Text>
    </HStack>
  );
}
