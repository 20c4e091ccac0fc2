{ Nim, normal play, in Free Pascal's objfpc mode (asked for below): classes, out parameters, Exit(value) }
{$mode objfpc}{$H+}
program NimObj;
uses SysUtils, Classes;
type
  TNim = class
    Heaps: array of Int64;
    procedure Load(const Line: string);
    function Choose(out H: Integer; out K: Int64): Boolean;
  end;
procedure TNim.Load(const Line: string);
var L: TStringList; i: Integer;
begin
  L := TStringList.Create;
  try
    L.Delimiter := ' '; L.StrictDelimiter := True; L.DelimitedText := Trim(Line);
    SetLength(Heaps, L.Count);
    for i := 0 to L.Count - 1 do Heaps[i] := StrToInt64(L[i]);
  finally L.Free; end;
end;
function TNim.Choose(out H: Integer; out K: Int64): Boolean;
var s: Int64; i, big: Integer;
begin
  s := 0; big := 0; Result := False;
  for i := 0 to High(Heaps) do s := s xor Heaps[i];
  for i := 0 to High(Heaps) do
  begin
    if Heaps[i] > 0 then Result := True;
    if (Heaps[i] xor s) < Heaps[i] then begin H := i; K := Heaps[i] - (Heaps[i] xor s); Exit(True) end;
    if Heaps[i] > Heaps[big] then big := i;
  end;
  H := big; K := Heaps[big];
end;
var N: TNim; Line: string; H: Integer; K: Int64; a, b: Int64; p: Integer;
begin
  N := TNim.Create;
  ReadLn(Line); N.Load(Line);
  while N.Choose(H, K) do
  begin
    WriteLn(H + 1, ' ', K); Flush(Output);
    N.Heaps[H] := N.Heaps[H] - K;
    if EOF(Input) then Break;
    ReadLn(Line); Line := Trim(Line); p := Pos(' ', Line);
    a := StrToInt64(Copy(Line, 1, p - 1)); b := StrToInt64(Copy(Line, p + 1, 100));
    N.Heaps[a - 1] := N.Heaps[a - 1] - b;
  end;
  N.Free;
end.
